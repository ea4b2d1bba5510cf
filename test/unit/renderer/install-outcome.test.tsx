// An install's outcome as the dialogs take it from the contract: a refusal before any audit is an error that keeps its
// reason and words; a dropped .zip goes as base64 and one over the limit is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../preload/contract';
import { failure, shownText } from '../../../renderer/src/i18n/ErrorText';
import { initI18n } from '../../../renderer/src/i18n';
import { withReport, zipUpload } from '../../../renderer/src/state/install';

describe('install outcomes', () => {
  it('a refusal without a report becomes an error with the reason', () => {
    expect(() => withReport({ status: 'refused', reason: '/nope: no such file or folder' })).toThrow(
      expect.objectContaining({ message: '/nope: no such file or folder' }),
    );
  });

  it('a refusal without a report keeps its words: a broken .zip is said in Chinese in the dialog', () => {
    const words = { code: 'zip.unreadable', params: { file: 'junk.zip', error: { code: 'zip.notZip' } } };
    let err: unknown;
    try {
      withReport({ status: 'refused', reason: 'cannot read the zip junk.zip: it is not a zip archive', words });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ words });
    initI18n('zh');
    expect(shownText(failure(err))).toBe('无法读取 zip 文件 junk.zip：它不是 zip 压缩包');
    initI18n('en');
  });

  it('sends a dropped .zip as base64 bytes and refuses one over the limit before sending', () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00]);
    expect(zipUpload('zipped.zip', bytes, 'user')).toEqual({
      filename: 'zipped.zip',
      data: 'UEsDBP8A',
      tier: 'user',
      replace: false,
    });
    expect(() => zipUpload('big.zip', new Uint8Array(MAX_UPLOAD_BYTES + 1), 'user')).toThrow(
      expect.objectContaining({ code: 'refused', message: expect.stringMatching(/big\.zip is 4\.0 MB/) }),
    );
  });
});
