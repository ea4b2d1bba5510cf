// The line prefilter's byte automaton as a WebAssembly kernel, assembled here byte by byte (a few hundred bytes, no
// toolchain): the same steps as quietBytes in audit-hints.ts, which stays the reference and the fallback.

/** The byte automaton of audit-hints.ts, as quietBytes runs it (entries and marks are row offsets: state << shift). */
export interface ByteAutomaton {
  /** Transitions: `table[s | byteClass[byte]]`, rows 1 << shift wide. */
  table: Int32Array;
  shift: number;
  byteClass: Uint8Array;
  /** Marks: a state at or above `flag` is worth a look; `loud`, `cr` (NL is every other mark). */
  flag: number; loud: number; cr: number;
  /** The space's class (a CR not before LF steps as a space). */
  space: number;
  /** The pair-side bits of each flagged state, by (state - flag) >> shift. */
  bits: Uint32Array;
  /** Bit p of the mask: bits p and p + 1 of a line are the two sides of a hint pair. */
  pairMask: number;
}

/** A kernel: the quiet flags of a file's bytes (one per line, as quietBytes gives them). */
export interface QuietKernel {
  quietBytes(buf: Uint8Array): Uint8Array;
  /**
   * A view of `size` bytes inside the kernel's memory for a file to be read into (valid until the next call): a
   * buffer from here is scanned where it lies, without a copy.
   */
  input(size: number): Uint8Array;
}

// ---- a tiny assembler --------------------------------------------------------------------------------------------

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;

/** A stream's locals in the kernel (see assemble). */
interface Stream { i: number; end: number; s: number; t: number; bits: number; start: number; loud: number; n: number; out: number }
const VOID = 0x40;

/** Structured code with named labels (a branch names its target; the depth is worked out here). */
class Code {
  readonly bytes: number[] = [];
  private readonly labels: (string | null)[] = [];
  private emit(...b: number[]): this { this.bytes.push(...b); return this; }
  private depth(label: string): number {
    const k = this.labels.lastIndexOf(label);
    if (k < 0) throw new Error(`scan kernel: no label ${label}`);
    return this.labels.length - 1 - k;
  }
  block(label: string | null = null, type = VOID): this { this.labels.push(label); return this.emit(0x02, type); }
  loop(label: string): this { this.labels.push(label); return this.emit(0x03, VOID); }
  if(type = VOID): this { this.labels.push(null); return this.emit(0x04, type); }
  else(): this { return this.emit(0x05); }
  end(): this { this.labels.pop(); return this.emit(0x0b); }
  br(label: string): this { return this.emit(0x0c, ...uleb(this.depth(label))); }
  brIf(label: string): this { return this.emit(0x0d, ...uleb(this.depth(label))); }
  ret(): this { return this.emit(0x0f); }
  call(f: number): this { return this.emit(0x10, ...uleb(f)); }
  get(l: number): this { return this.emit(0x20, ...uleb(l)); }
  set(l: number): this { return this.emit(0x21, ...uleb(l)); }
  tee(l: number): this { return this.emit(0x22, ...uleb(l)); }
  const(v: number): this { return this.emit(0x41, ...sleb(v | 0)); }
  load(offset: number): this { return this.emit(0x28, 2, ...uleb(offset)); }
  load8(offset: number): this { return this.emit(0x2d, 0, ...uleb(offset)); }
  load16(offset: number): this { return this.emit(0x2f, 1, ...uleb(offset)); }
  store8(offset: number): this { return this.emit(0x3a, 0, ...uleb(offset)); }
  eqz(): this { return this.emit(0x45); }
  eq(): this { return this.emit(0x46); }
  ltU(): this { return this.emit(0x49); }
  geU(): this { return this.emit(0x4f); }
  add(): this { return this.emit(0x6a); }
  sub(): this { return this.emit(0x6b); }
  and(): this { return this.emit(0x71); }
  or(): this { return this.emit(0x72); }
  shl(): this { return this.emit(0x74); }
  shrU(): this { return this.emit(0x76); }
  /** `local += k` */
  inc(l: number, k = 1): this { return this.get(l).const(k).add().set(l); }
  /** memory.copy (dest, src, n) */
  bulkCopy(): this { return this.emit(0xfc, 0x0a, 0x00, 0x00); }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
}

// ---- the kernel --------------------------------------------------------------------------------------------------

const PAGE = 65536;
const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/**
 * Memory: the byte classes (u16, pre-scaled to byte offsets in a row), the base64 bytes, the pair bits, the
 * transition table (i32 byte offsets of rows), then a file's bytes and after them its flags.
 */
function layout(a: ByteAutomaton): { CLS: number; B64: number; BITS: number; TB: number; IN: number } {
  const CLS = 0;
  const B64 = 512;
  const BITS = 768;
  const TB = align(BITS + a.bits.length * 4, 64);
  const IN = align(TB + a.table.length * 4, 64);
  return { CLS, B64, BITS, TB, IN };
}

/**
 * The module: `r(len, out)` reads the file at IN (len bytes), writes a flag per line at `out` and returns how many.
 * Its steps are quietBytes's, in the same order (see audit-hints.ts for why each is there).
 */
function assemble(a: ByteAutomaton, pages: number): Uint8Array {
  const { CLS, B64, TB, BITS, IN } = layout(a);
  const F = a.flag << 2;
  const L = a.loud << 2;
  const R = a.cr << 2;
  const SPACE = a.space << 2;

  // b64(start, end): whether [start, end) holds 24 base64 bytes in a row (looked for at every 24th byte).
  const b = new Code();
  {
    const start = 0, end = 1, i = 2, lo = 3, hi = 4;
    b.get(start).const(23).add().set(i);
    b.block('out').loop('next');
    b.get(i).get(end).geU().brIf('out');
    b.get(i).load8(IN).load8(B64).if();
    b.get(i).set(lo).get(i).set(hi);
    b.block('l').loop('ll');
    b.get(lo).get(start).eq().brIf('l'); // never below start
    b.get(lo).const(1).sub().load8(IN).load8(B64).eqz().brIf('l');
    b.get(lo).const(1).sub().set(lo).br('ll');
    b.end().end();
    b.block('h').loop('hh');
    b.get(hi).const(1).add().get(end).geU().brIf('h');
    b.get(hi).const(1).add().load8(IN).load8(B64).eqz().brIf('h');
    b.inc(hi).br('hh');
    b.end().end();
    b.get(hi).get(lo).sub().const(23).geU().if().const(1).ret().end();
    b.get(hi).set(i);
    b.end();
    b.inc(i, 24).br('next');
    b.end().end();
    b.const(0);
  }
  const bLocals = [[3, I32]];

  // r(mid, len, out, outB): two streams, the lines of [0, mid) and of [mid, len) (mid is 0 or just past a LF), stepped
  // in turns so that the two chains of table loads overlap; A's flags go to `out`, B's to `outB`, then after A's.
  const r = new Code();
  const MID = 0, LEN = 1, OUT = 2, OUTB = 3;
  let next = 4;
  const stream = (): Stream => ({ i: next++, end: next++, s: next++, t: next++, bits: next++, start: next++, loud: next++, n: next++, out: next++ });
  const A = stream();
  const B = stream();
  const rLocals = [[next - 4, I32]];
  r.get(MID).set(A.end).get(OUT).set(A.out);
  r.get(MID).set(B.i).get(MID).set(B.start).get(LEN).set(B.end).get(OUTB).set(B.out);
  /** One step of a stream: to `ev` at its end or on a mark, else on to the next byte. */
  const step = (S: Stream, ev: string): void => {
    r.get(S.i).get(S.end).geU().brIf(ev);
    r.get(S.s).get(S.i).load8(IN).const(1).shl().load16(CLS).add().load(TB).tee(S.t).const(F).geU().brIf(ev);
    r.get(S.t).set(S.s).inc(S.i);
  };
  /**
   * A stream's mark or end (quietBytes's slow path): back to `cont`, or to `done` once its bytes are read. The last
   * stream's end is a line's end (the file's last line); the other's end is just past a LF: no line is left there.
   */
  const handle = (S: Stream, last: boolean, cont: string, done: string): void => {
    r.block('eol');
    r.get(S.i).get(S.end).geU().brIf('eol');
    r.get(S.t).const(R).eq().if();
    {
      // A CR just before LF belongs to the line break; any other CR is whitespace.
      r.get(S.i).const(1).add().get(S.end).ltU().if();
      r.get(S.i).load8(IN + 1).const(10).eq().if().inc(S.i).br(cont).end();
      r.end();
      r.get(S.s).const(SPACE).add().load(TB).tee(S.t).const(F).ltU().if().get(S.t).set(S.s).inc(S.i).br(cont).end();
    }
    r.end();
    r.get(S.t).const(L).ltU().if();
    r.get(S.bits).get(S.t).const(F).sub().const(a.shift).shrU().load(BITS).or().set(S.bits);
    r.get(S.t).set(S.s).inc(S.i).br(cont);
    r.end();
    r.get(S.t).const(L).eq().if();
    {
      // The rest of the line does not matter: on to its LF (or the end).
      r.const(1).set(S.loud).inc(S.i);
      r.block('found').loop('scan');
      r.get(S.i).get(S.end).geU().brIf('found');
      r.get(S.i).load8(IN).const(10).eq().brIf('found');
      r.inc(S.i).br('scan');
      r.end().end();
    }
    r.end();
    r.end(); // 'eol': the line ends at i (its LF, or the stream's end)
    if (!last) r.get(S.i).get(S.end).geU().brIf(done);
    r.get(S.out).get(S.n).add();
    r.get(S.loud).if(I32).const(0).else();
    r.get(S.bits).get(S.bits).const(1).shrU().and().const(a.pairMask).and().if(I32).const(0).else();
    r.get(S.i).get(S.start).sub().const(24).geU().if(I32).get(S.start).get(S.i).call(0).eqz().else().const(1).end();
    r.end();
    r.end();
    r.store8(0);
    r.inc(S.n);
    if (last) r.get(S.i).get(S.end).geU().brIf(done);
    r.const(0).set(S.s).const(0).set(S.bits).const(0).set(S.loud);
    r.inc(S.i).get(S.i).set(S.start).br(cont);
  };
  /** One stream on its own, to its end. */
  const alone = (S: Stream, last: boolean, done: string): void => {
    r.loop('alone');
    r.block('ev').loop('fast');
    step(S, 'ev');
    r.br('fast');
    r.end().end();
    handle(S, last, 'alone', done);
    r.end();
  };
  r.block('finished');
  r.block('onlyA');
  r.block('onlyB');
  r.loop('two');
  r.block('evB').block('evA').loop('fast');
  step(A, 'evA');
  step(B, 'evB');
  r.br('fast');
  r.end().end();
  handle(A, false, 'two', 'onlyB');
  r.end();
  handle(B, true, 'two', 'onlyA');
  r.end(); // 'two'
  r.end(); // 'onlyB'
  alone(B, true, 'finished');
  r.end(); // 'onlyA'
  alone(A, false, 'finished');
  r.end(); // 'finished'
  // B's flags after A's: memory.copy(out + nA, outB, nB); nA + nB.
  r.get(A.out).get(A.n).add().get(B.out).get(B.n).bulkCopy();
  r.get(A.n).get(B.n).add();

  const body = (c: Code, locals: number[][]): number[] => {
    const b = [...vec(locals.map(([k, ty]) => [...uleb(k!), ty!])), ...c.bytes, 0x0b];
    return [...uleb(b.length), ...b];
  };
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec([[I32], [I32]]), ...vec([[I32]])], [0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])]])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, ...uleb(pages)]])),
    ...section(7, vec([[...name('m'), 0x02, 0], [...name('r'), 0x00, 1]])),
    ...section(10, vec([body(b, bLocals), body(r, rLocals)])),
  ];
  return Uint8Array.from(bytes);
}

/** What is used of WebAssembly (the project's type libraries do not describe it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }

/** Files shorter than this are read as one stream. */
const TWO_STREAMS = 256;

/** The kernel for an automaton, or undefined where WebAssembly is not available (quietBytes in JS is used then). */
export function quietKernel(a: ByteAutomaton): QuietKernel | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return undefined;
  const { CLS, B64, BITS, TB, IN } = layout(a);
  const pages = Math.ceil((IN + 256 * 1024) / PAGE);
  let exports: Record<string, unknown>;
  try {
    exports = new wasm.Instance(new wasm.Module(assemble(a, pages))).exports;
  } catch {
    return undefined;
  }
  const mem = exports.m as WasmMemory;
  const run = exports.r as (mid: number, len: number, out: number, outB: number) => number;
  const init = new DataView(mem.buffer);
  for (let c = 0; c < 256; c++) init.setUint16(CLS + c * 2, a.byteClass[c]! << 2, true);
  for (let c = 0; c < 256; c++) init.setUint8(B64 + c, c < 128 && /[A-Za-z0-9+/]/.test(String.fromCharCode(c)) ? 1 : 0);
  for (let k = 0; k < a.bits.length; k++) init.setUint32(BITS + k * 4, a.bits[k]!, true);
  for (let k = 0; k < a.table.length; k++) init.setInt32(TB + k * 4, a.table[k]! << 2, true);
  let bytes = new Uint8Array(mem.buffer);
  /** Room for a file of `size` bytes and its flags. */
  const room = (size: number): void => {
    const need = IN + align(size, 8) + size + 16;
    if (mem.buffer.byteLength < need) mem.grow(Math.ceil((need - mem.buffer.byteLength) / PAGE));
    if (bytes.buffer !== mem.buffer) bytes = new Uint8Array(mem.buffer);
  };
  return {
    input(size) {
      room(size);
      return bytes.subarray(IN, IN + size);
    },
    quietBytes(buf) {
      const len = buf.length;
      room(len);
      if (buf.buffer !== bytes.buffer || buf.byteOffset !== IN) bytes.set(buf, IN);
      // The second stream starts just past the LF nearest the middle (A's lines are at most `mid`).
      const lf = len < TWO_STREAMS ? -1 : bytes.indexOf(10, IN + (len >> 1));
      const mid = lf === -1 || lf >= IN + len ? 0 : lf + 1 - IN;
      const out = IN + align(len, 8);
      const n = run(mid, len, out, out + mid);
      return bytes.slice(out, out + n);
    },
  };
}
