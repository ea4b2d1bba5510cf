// Files into the chat: the attach button, paste and drop put files beside the message (name, size, tokens), each
// removable; what cannot go is refused with its size and the limit or its type; a dropped skill package is offered to
// the installer as a choice; the files go with the message to the engine and show on the sent message.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { Chat } from '../../../renderer/src/components/Chat';
import { useView } from '../../../renderer/src/state/store';
import { MAX_TEXT_ATTACHMENT_BYTES } from '../../../preload/contract';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const text = (name: string, body: string, type = 'text/plain') => new File([body], name, { type });

function dropOn(target: Element, files: File[]) {
  const dataTransfer = {
    types: ['Files'],
    files,
    items: files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f, webkitGetAsEntry: () => null })),
  };
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

describe('Attachments', () => {
  it('the button attaches a text file with its name and size; it goes with the message and shows on it', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    const { container } = renderWith(<Chat />, client, { workspace: WS, sessionId: 's1' });
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Attach files' }));
    await user.upload(input, text('notes.txt', 'release on Friday'));
    const list = await screen.findByRole('list', { name: 'Files going with your message' });
    expect(within(list).getByText('notes.txt')).toBeTruthy();
    expect(list.textContent).toMatch(/17 B · about 5 tokens/);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'when is the release?{Enter}');
    await waitFor(() => expect(client.calls.some((c) => c.method === 'chat.send')).toBe(true));
    const call = client.calls.find((c) => c.method === 'chat.send')!;
    expect((call.args[0] as { attachments: unknown }).attachments).toEqual([
      { kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 17, text: 'release on Friday' },
    ]);
    // Gone from the box, shown on the sent message.
    expect(screen.queryByRole('list', { name: 'Files going with your message' })).toBeNull();
    const sent = screen.getByRole('list', { name: 'Files sent with this message' });
    expect(sent.textContent).toMatch(/notes\.txt/);
  });

  it('an image is read as an image, and Remove takes a file off', async () => {
    const user = userEvent.setup();
    const { container } = renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1' });
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, [new File([PNG], 'dot.png', { type: 'image/png' }), text('a.md', '# A')]);
    const list = await screen.findByRole('list', { name: 'Files going with your message' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(list.textContent).toMatch(/about 1,600 tokens/);
    await user.click(screen.getByRole('button', { name: 'Remove dot.png' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list.textContent).toMatch(/a\.md/);
    // The button pressed is gone: the focus goes to the next file's Remove, then to the message box, never the page.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove a.md' }));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('list', { name: 'Files going with your message' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it('an image for a model that reads no images says so on its chip at once, and again after a switch of model', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    client.modelChoices.groups[0]!.noImages = ['fake-model'];
    const { container } = renderWith(<Chat />, client, { workspace: WS, sessionId: 's1' });
    await screen.findByRole('combobox', { name: 'Model' });
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, [new File([PNG], 'dot.png', { type: 'image/png' }), text('a.md', '# A')]);
    const list = await screen.findByRole('list', { name: 'Files going with your message' });
    const [image, notes] = within(list).getAllByRole('listitem');
    await waitFor(() => expect(image!.textContent).toMatch(/12 B · cannot be sent to fake-model: it reads no images/));
    expect(image!.textContent).not.toMatch(/tokens/);
    expect(notes!.textContent).toMatch(/about 1 tokens/);
    // Another model, one that reads images: the chip counts the image's tokens again.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Model' }), 'fake-model-large');
    await waitFor(() => expect(image!.textContent).toMatch(/about 1,600 tokens/));
  });

  it('the chip of an image for a model that reads no images, in Chinese', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    client.modelChoices.groups[0]!.noImages = ['fake-model'];
    const { container } = renderWith(<Chat />, client, { workspace: WS, sessionId: 's1' }, 'zh');
    await screen.findByRole('combobox', { name: '模型' });
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([PNG], 'dot.png', { type: 'image/png' }));
    const list = await screen.findByRole('list', { name: '随消息发送的文件' });
    await waitFor(() => expect(list.textContent).toMatch(/无法发送给 fake-model：它不读图片/));
  });

  it('a binary file is refused with its type, a file too large with its size and the limit', async () => {
    const user = userEvent.setup();
    const { container } = renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1' });
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const bin = new File([new Uint8Array([0x4d, 0x5a, 0x00, 0xff, 0xfe])], 'tool.exe', {
      type: 'application/x-msdownload',
    });
    const big = text('huge.log', 'x'.repeat(MAX_TEXT_ATTACHMENT_BYTES + 1));
    await user.upload(input, [bin, big]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/tool\.exe was not attached: it is a binary file \(application\/x-msdownload\)/);
    expect(alert.textContent).toMatch(
      /huge\.log was not attached: it is 512\.0 KB, and the most a message takes is 512\.0 KB/,
    );
    expect(screen.queryByRole('list', { name: 'Files going with your message' })).toBeNull();
  });

  it('pasting a file into the message box attaches it', async () => {
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1' });
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.paste(box, { clipboardData: { files: [text('clip.ts', 'export const a = 1;')], getData: () => '' } });
    const list = await screen.findByRole('list', { name: 'Files going with your message' });
    expect(list.textContent).toMatch(/clip\.ts/);
  });

  it('dropping a file on the chat attaches it; a dropped skill .zip is offered to the installer, as a choice', async () => {
    const user = userEvent.setup();
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1' });
    const chat = screen.getByRole('region', { name: 'Chat' });
    dropOn(chat, [text('notes.txt', 'hello')]);
    expect((await screen.findByRole('list', { name: 'Files going with your message' })).textContent).toMatch(
      /notes\.txt/,
    );
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'my-skill.zip', { type: 'application/zip' });
    dropOn(chat, [zip]);
    const choice = await screen.findByRole('group', { name: 'Skill package' });
    expect(choice.textContent).toMatch(/my-skill\.zip looks like a skill package/);
    expect(useView.getState().installOpen).toBeFalsy();
    await user.click(within(choice).getByRole('button', { name: 'Open the skill installer' }));
    expect(useView.getState().installOpen).toBe(true);
    expect(useView.getState().installFile?.name).toBe('my-skill.zip');
  });

  it('a text file dropped elsewhere on the window goes into the chat, not to the skill installer', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', view: 'sessions' });
    dropOn(await screen.findByRole('navigation', { name: 'Skills' }), [text('notes.txt', 'hello')]);
    const list = await screen.findByRole('list', { name: 'Files going with your message' });
    expect(list.textContent).toMatch(/notes\.txt/);
    expect(useView.getState().view).toBe('chat');
    expect(useView.getState().installOpen).toBeFalsy();
    // A skill .zip dropped there still opens the installer with it.
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'my-skill.zip', { type: 'application/zip' });
    dropOn(screen.getByRole('navigation', { name: 'Skills' }), [zip]);
    expect(useView.getState().installOpen).toBe(true);
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'skills.installUpload')?.args[0]).toMatchObject({
        filename: 'my-skill.zip',
      }),
    );
  });

  it('in Chinese too', async () => {
    const user = userEvent.setup();
    const { container } = renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1' }, 'zh');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    expect(screen.getByRole('button', { name: '添加文件' })).toBeTruthy();
    await user.upload(input, new File([new Uint8Array([0, 1, 2])], 'a.bin', { type: 'application/octet-stream' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/a\.bin 没有附上：它是二进制文件/);
  });
});
