// The line prefilter's byte automaton as a WebAssembly kernel, assembled here byte by byte (a few hundred bytes, no
// toolchain): the same steps as quietBytes in audit-hints.ts, which stays the reference and the fallback.

/** The byte automaton of audit-hints.ts, as quietBytes runs it (entries and marks are row offsets: state << shift). */
export interface ByteAutomaton {
  /** Transitions: `table[s | byteClass[byte]]`, rows 1 << shift wide. */
  table: Int32Array;
  shift: number;
  byteClass: Uint8Array;
  /** Marks: a state at or above `flag` is worth a look; `loud`, `cr` (NL is every other mark). */
  flag: number;
  loud: number;
  cr: number;
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
   * A view of `size` bytes inside the kernel's memory for a file to be read into (valid until the next call: a later
   * call can grow the memory, which empties every earlier view; quietBytes refuses one): a buffer from here is
   * scanned where it lies, without a copy.
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
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const V128 = 0x7b;

/** A stream's locals in the kernel (see assemble). */
interface Stream {
  i: number;
  end: number;
  s: number;
  t: number;
  bits: number;
  start: number;
  loud: number;
  n: number;
  out: number;
}
const VOID = 0x40;

/** Structured code with named labels (a branch names its target; the depth is worked out here). */
class Code {
  readonly bytes: number[] = [];
  private readonly labels: (string | null)[] = [];
  private emit(...b: number[]): this {
    this.bytes.push(...b);
    return this;
  }
  private depth(label: string): number {
    const k = this.labels.lastIndexOf(label);
    if (k < 0) throw new Error(`scan kernel: no label ${label}`);
    return this.labels.length - 1 - k;
  }
  block(label: string | null = null, type = VOID): this {
    this.labels.push(label);
    return this.emit(0x02, type);
  }
  loop(label: string): this {
    this.labels.push(label);
    return this.emit(0x03, VOID);
  }
  if(type = VOID): this {
    this.labels.push(null);
    return this.emit(0x04, type);
  }
  else(): this {
    return this.emit(0x05);
  }
  end(): this {
    this.labels.pop();
    return this.emit(0x0b);
  }
  br(label: string): this {
    return this.emit(0x0c, ...uleb(this.depth(label)));
  }
  brIf(label: string): this {
    return this.emit(0x0d, ...uleb(this.depth(label)));
  }
  ret(): this {
    return this.emit(0x0f);
  }
  call(f: number): this {
    return this.emit(0x10, ...uleb(f));
  }
  get(l: number): this {
    return this.emit(0x20, ...uleb(l));
  }
  set(l: number): this {
    return this.emit(0x21, ...uleb(l));
  }
  tee(l: number): this {
    return this.emit(0x22, ...uleb(l));
  }
  const(v: number): this {
    return this.emit(0x41, ...sleb(v | 0));
  }
  load(offset: number): this {
    return this.emit(0x28, 2, ...uleb(offset));
  }
  load8(offset: number): this {
    return this.emit(0x2d, 0, ...uleb(offset));
  }
  load16(offset: number): this {
    return this.emit(0x2f, 1, ...uleb(offset));
  }
  store8(offset: number): this {
    return this.emit(0x3a, 0, ...uleb(offset));
  }
  eqz(): this {
    return this.emit(0x45);
  }
  eq(): this {
    return this.emit(0x46);
  }
  ltU(): this {
    return this.emit(0x49);
  }
  geU(): this {
    return this.emit(0x4f);
  }
  add(): this {
    return this.emit(0x6a);
  }
  sub(): this {
    return this.emit(0x6b);
  }
  and(): this {
    return this.emit(0x71);
  }
  or(): this {
    return this.emit(0x72);
  }
  shl(): this {
    return this.emit(0x74);
  }
  shrU(): this {
    return this.emit(0x76);
  }
  /** `local += k` */
  inc(l: number, k = 1): this {
    return this.get(l).const(k).add().set(l);
  }
  /** memory.copy (dest, src, n) */
  bulkCopy(): this {
    return this.emit(0xfc, 0x0a, 0x00, 0x00);
  }
  xor(): this {
    return this.emit(0x73);
  }
  clz(): this {
    return this.emit(0x67);
  }
  ctz(): this {
    return this.emit(0x68);
  }
  // SIMD (128-bit vectors, the 0xfd opcodes)
  private simd(op: number): this {
    return this.emit(0xfd, ...uleb(op));
  }
  /** v128.load of 16 bytes at the address on the stack (no alignment assumed). */
  loadV(offset: number): this {
    return this.emit(0xfd, 0x00, 0, ...uleb(offset));
  }
  /** A vector of 16 bytes `b`. */
  splat8(b: number): this {
    return this.emit(0xfd, 0x0c, ...new Array<number>(16).fill(b & 0xff));
  }
  orV(): this {
    return this.simd(0x50);
  }
  eq8(): this {
    return this.simd(0x23);
  }
  ltU8(): this {
    return this.simd(0x26);
  }
  sub8(): this {
    return this.simd(0x71);
  }
  /** i8x16.bitmask: bit k is lane k's top bit. */
  bitmask8(): this {
    return this.simd(0x64);
  }
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

/** Streams a file is cut into (at line ends), stepped in turns so that their chains of table loads overlap. */
export const STREAMS = 3;

/**
 * Memory: the byte classes (pre-scaled to byte offsets in a row: u8, or u16 when rows are wider than 64 entries),
 * the base64 bytes, a parking line (64 spaces and a LF, see assemble), each state's pair bits, the transition table
 * (i32 byte offsets of rows), then a file's bytes, a LF after them, and the flags.
 */
function layout(a: ByteAutomaton): {
  CLS: number;
  wide: boolean;
  B64: number;
  PARK: number;
  BITS: number;
  TB: number;
  IN: number;
} {
  const wide = (1 << a.shift) * 4 > 256;
  const CLS = 0;
  const B64 = 512;
  const PARK = 768;
  const BITS = 896;
  const TB = align(BITS + (a.loud >> a.shift) * 4, 64);
  const IN = align(TB + a.table.length * 4, 64);
  return { CLS, wide, B64, PARK, BITS, TB, IN };
}

/**
 * The module: `r(end, out, m1, …)` reads the file at [IN, end) (a LF written after it), writes a flag per line at
 * `out` and returns how many (every position is an address). Its steps are quietBytes's, in the same order (see
 * audit-hints.ts for why each is there). The file is read as K streams, [IN, m1), [m1, m2), …, [m(K-1), end), each m
 * just past a LF (or equal to the one before: an empty stream): one byte of each in turn, so that the dependent table
 * loads of one overlap the others'. A stream that is done (or empty) is parked on a line of spaces until all are.
 */
function assemble(a: ByteAutomaton, pages: number, K: number, simd: boolean): Uint8Array {
  const { CLS, wide, B64, PARK, TB, BITS, IN } = layout(a);
  const F = a.flag << 2;
  const L = a.loud << 2;
  const R = a.cr << 2;
  const SPACE = a.space << 2;

  // b64(start, end): whether [start, end) holds 24 base64 bytes in a row. With SIMD: 16 bytes at a time, each
  // classed without a branch (a bit per byte), the run of base64 bytes carried from one block to the next. Without
  // SIMD: looked for at every 24th byte, and the run around a hit measured.
  const b = new Code();
  let bLocals: number[][];
  if (simd) {
    const start = 0,
      end = 1,
      p = 2,
      run = 3,
      m = 4,
      v = 5;
    // The vectors the classing compares with, set once per call (locals: registers, not constants loaded per block).
    const k20 = 6,
      k61 = 7,
      k26 = 8,
      k30 = 9,
      k10 = 10,
      k04 = 11,
      k2f = 12;
    for (const [l, byte] of [
      [k20, 0x20],
      [k61, 0x61],
      [k26, 26],
      [k30, 0x30],
      [k10, 10],
      [k04, 4],
      [k2f, 0x2f],
    ] as const)
      b.splat8(byte).set(l);
    b.get(start).set(p).const(0).set(run);
    b.block('out').loop('next');
    b.get(p).get(end).geU().brIf('out');
    b.get(p).loadV(0).set(v);
    // A-Z, a-z: (byte | 0x20) - 'a' < 26; 0-9: byte - '0' < 10; '+' and '/': byte | 4 = '/' (only 0x2b and 0x2f).
    b.get(v).get(k20).orV().get(k61).sub8().get(k26).ltU8();
    b.get(v).get(k30).sub8().get(k10).ltU8().orV();
    b.get(v).get(k04).orV().get(k2f).eq8().orV();
    // A block may reach past `end`: the byte there is the line's LF (every line of the kernel's input ends in one),
    // which is not base64, so no run goes past it.
    b.bitmask8().set(m);
    b.get(m).const(0xffff).eq().if();
    b.get(run).const(16).add().tee(run).const(24).geU().if().const(1).ret().end();
    b.else();
    // The run so far and this block's leading base64 bytes; then the run this block ends with.
    b.get(run).get(m).const(-1).xor().ctz().add().const(24).geU().if().const(1).ret().end();
    b.get(m).const(-1).xor().const(16).shl().clz().set(run);
    b.end();
    b.inc(p, 16).br('next');
    b.end().end();
    b.const(0);
    bLocals = [
      [3, I32],
      [8, V128],
    ];
  } else {
    const start = 0,
      end = 1,
      i = 2,
      lo = 3,
      hi = 4;
    b.get(start).const(23).add().set(i);
    b.block('out').loop('next');
    b.get(i).get(end).geU().brIf('out');
    b.get(i).load8(0).load8(B64).if();
    b.get(i).set(lo).get(i).set(hi);
    b.block('l').loop('ll');
    b.get(lo).get(start).eq().brIf('l'); // never below start
    b.get(lo).const(1).sub().load8(0).load8(B64).eqz().brIf('l');
    b.get(lo).const(1).sub().set(lo).br('ll');
    b.end().end();
    b.block('h').loop('hh');
    b.get(hi).const(1).add().get(end).geU().brIf('h');
    b.get(hi).const(1).add().load8(0).load8(B64).eqz().brIf('h');
    b.inc(hi).br('hh');
    b.end().end();
    b.get(hi).get(lo).sub().const(23).geU().if().const(1).ret().end();
    b.get(hi).set(i);
    b.end();
    b.inc(i, 24).br('next');
    b.end().end();
    b.const(0);
    bLocals = [[3, I32]];
  }

  const r = new Code();
  const END = 0,
    OUT = 1;
  const M = (k: number): number => 1 + k; // m1 … m(K-1) are parameters 2 …; every position is an address
  let next = K + 1;
  const LIVE = next++;
  const streams: Stream[] = [];
  for (let k = 0; k < K; k++)
    streams.push({
      i: next++,
      end: next++,
      s: next++,
      t: next++,
      bits: next++,
      start: next++,
      loud: next++,
      n: next++,
      out: next++,
    });
  const rLocals = [[next - (K + 1), I32]];
  // Each stream's bounds; an empty one (never the last) is parked from the start.
  streams.forEach((S, k) => {
    const from = (): Code => (k === 0 ? r.const(IN) : r.get(M(k)));
    const to = (): Code => (k === K - 1 ? r.get(END) : r.get(M(k + 1)));
    from().set(S.i).get(S.i).set(S.start).get(OUT).get(S.i).const(IN).sub().add().set(S.out);
    to().set(S.end);
    if (k < K - 1) {
      r.get(S.i).get(S.end).eq().if().const(PARK).set(S.i).const(0).set(S.end).else().inc(LIVE).end();
    } else r.inc(LIVE);
  });
  /** The class of the byte at i, as a byte offset in a row. */
  const byteClass = (S: Stream): void => {
    r.get(S.i).load8(0);
    if (wide) r.const(1).shl().load16(CLS);
    else r.load8(CLS);
  };
  /** One step of a stream: to `ev` on a mark, else on to the next byte (every stream's bytes end in a LF). */
  const step = (S: Stream, ev: string): void => {
    r.get(S.s);
    byteClass(S);
    r.add().load(TB).tee(S.t).const(F).geU().brIf(ev);
    r.get(S.t).set(S.s).inc(S.i);
  };
  const flag = (S: Stream): void => {
    r.get(S.out).get(S.n).add();
    r.get(S.loud).if(I32).const(0).else();
    r.get(S.bits).get(S.bits).const(1).shrU().and().const(a.pairMask).and().if(I32).const(0).else();
    r.get(S.i).get(S.start).sub().const(24).geU().if(I32).get(S.start).get(S.i).call(0).eqz().else().const(1).end();
    r.end();
    r.end();
    r.store8(0);
    r.inc(S.n);
  };
  /** A stream's mark (quietBytes's slow path), then back to `cont`. */
  const handle = (S: Stream, last: boolean, cont: string): void => {
    r.block('atEnd');
    r.block('eol');
    r.get(S.i).get(S.end).geU().brIf('atEnd'); // the LF after the file, or a parked stream's
    r.get(S.t).const(R).eq().if();
    {
      // A CR just before LF belongs to the line break; any other CR is whitespace.
      r.get(S.i).const(1).add().get(S.end).ltU().if();
      r.get(S.i).load8(1).const(10).eq().if().inc(S.i).br(cont).end();
      r.end();
      r.get(S.s).const(SPACE).add().load(TB).set(S.t);
    }
    r.end();
    r.get(S.t).const(L).ltU().if();
    r.get(S.bits).get(S.t).const(a.shift).shrU().load(BITS).or().set(S.bits);
    r.get(S.t).set(S.s).inc(S.i).br(cont);
    r.end();
    r.get(S.t).const(L).eq().if();
    {
      // The rest of the line does not matter: on to its LF.
      r.const(1).set(S.loud).inc(S.i);
      r.block('found').loop('scan');
      r.get(S.i).get(S.end).geU().brIf('found');
      r.get(S.i).load8(0).const(10).eq().brIf('found');
      r.inc(S.i).br('scan');
      r.end().end();
      r.get(S.i).get(S.end).geU().brIf('atEnd');
    }
    r.end();
    r.end(); // 'eol': a line ends at i (its LF)
    flag(S);
    r.const(0).set(S.s).const(0).set(S.bits).const(0).set(S.loud);
    r.inc(S.i).get(S.i).set(S.start);
    r.get(S.i).get(S.end).ltU().brIf(cont);
    r.end(); // 'atEnd': the stream's bytes are read (or it was parked)
    // A parked stream is back at its line's start: parked again, from the start state (whatever its spaces stepped to).
    r.get(S.end).eqz().if().const(PARK).set(S.i).const(0).set(S.s).br(cont).end();
    // The last stream's last line has no LF (it may be empty); every other stream ends just past one.
    if (last) flag(S);
    r.get(LIVE).const(1).sub().tee(LIVE).eqz().brIf('finished');
    r.const(PARK).set(S.i).const(0).set(S.end).const(0).set(S.s).br(cont);
  };
  r.block('finished');
  r.loop('turn');
  for (let k = K - 1; k >= 0; k--) r.block(`ev${k}`);
  r.loop('fast');
  streams.forEach((S, k) => step(S, `ev${k}`));
  r.br('fast');
  r.end();
  streams.forEach((S, k) => {
    r.end(); // `ev${k}`
    handle(S, k === K - 1, 'turn');
  });
  r.end(); // 'turn'
  r.end(); // 'finished'
  // The streams' flags one after the other: memory.copy(out + n so far, stream's out, its n).
  const total = streams[0]!.n;
  for (const S of streams.slice(1)) {
    r.get(OUT).get(total).add().get(S.out).get(S.n).bulkCopy();
    r.get(total).get(S.n).add().set(total);
  }
  r.get(total);

  const body = (c: Code, locals: number[][]): number[] => {
    const b = [...vec(locals.map(([k, ty]) => [...uleb(k!), ty!])), ...c.bytes, 0x0b];
    return [...uleb(b.length), ...b];
  };
  const bytes = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(
      1,
      vec([
        [0x60, ...vec([[I32], [I32]]), ...vec([[I32]])],
        [0x60, ...vec(Array.from({ length: K + 1 }, () => [I32])), ...vec([[I32]])],
      ]),
    ),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, ...uleb(pages)]])),
    ...section(
      7,
      vec([
        [...name('m'), 0x02, 0],
        [...name('r'), 0x00, 1],
      ]),
    ),
    ...section(10, vec([body(b, bLocals), body(r, rLocals)])),
  ];
  return Uint8Array.from(bytes);
}

/** What is used of WebAssembly (the project's type libraries do not describe it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** Files shorter than this are read as one stream. */
const SPLIT_MIN = 256;

/**
 * The kernel for an automaton, or undefined where WebAssembly is not available (quietBytes in JS is used then).
 * `simd`: its base64 check reads 16 bytes at a time (WebAssembly SIMD), else byte by byte; by default SIMD where the
 * engine has it.
 */
export function quietKernel(a: ByteAutomaton, streams = STREAMS, simd?: boolean): QuietKernel | undefined {
  if (streams < 1 || streams > 5) throw new Error('scan kernel: 1 to 5 streams');
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return undefined;
  const { CLS, wide, B64, PARK, BITS, TB, IN } = layout(a);
  const pages = Math.ceil((IN + 256 * 1024) / PAGE);
  let exports: Record<string, unknown> | undefined;
  for (const vectors of simd === undefined ? [true, false] : [simd]) {
    try {
      exports = new wasm.Instance(new wasm.Module(assemble(a, pages, streams, vectors))).exports;
      break;
    } catch {
      /* no SIMD here: the next way, if any */
    }
  }
  if (!exports) return undefined;
  const mem = exports.m as WasmMemory;
  const run = exports.r as (len: number, out: number, ...m: number[]) => number;
  const init = new DataView(mem.buffer);
  for (let c = 0; c < 256; c++) {
    if (wide) init.setUint16(CLS + c * 2, a.byteClass[c]! << 2, true);
    else init.setUint8(CLS + c, a.byteClass[c]! << 2);
  }
  for (let c = 0; c < 256; c++) init.setUint8(B64 + c, c < 128 && /[A-Za-z0-9+/]/.test(String.fromCharCode(c)) ? 1 : 0);
  for (let k = 0; k < 64; k++) init.setUint8(PARK + k, 32);
  init.setUint8(PARK + 64, 10);
  const flagged = a.flag >> a.shift;
  for (let k = 0; k < a.bits.length; k++) init.setUint32(BITS + (flagged + k) * 4, a.bits[k]!, true);
  for (let k = 0; k < a.table.length; k++) init.setInt32(TB + k * 4, a.table[k]! << 2, true);
  let bytes = new Uint8Array(mem.buffer);
  /**
   * The memory's buffers before it grew: growing detaches them, and a view into one reads as empty (zero bytes, one
   * quiet line). quietBytes refuses such a view rather than call a file it never saw quiet.
   */
  const outgrown = new WeakSet<ArrayBufferLike>();
  /**
   * Room for a file of `size` bytes, the LF after it and its flags. Only this grows the memory, so `bytes` always
   * views all of it and its length is the memory's (the memory's own `buffer` getter is a call into the engine).
   */
  const room = (size: number): void => {
    // 16 bytes past the flags: the SIMD base64 check reads a line's last bytes 16 at a time.
    const need = IN + align(size + 1, 8) + size + 1 + 16;
    if (bytes.length < need) {
      outgrown.add(bytes.buffer);
      mem.grow(Math.ceil((need - bytes.length) / PAGE));
      bytes = new Uint8Array(mem.buffer);
    }
  };
  const m = [0, 0, 0, 0];
  return {
    input(size) {
      room(size);
      return bytes.subarray(IN, IN + size);
    },
    quietBytes(buf) {
      if (buf.buffer !== bytes.buffer && outgrown.has(buf.buffer))
        throw new Error(
          "scan kernel: a view from input() read after the kernel's memory grew (it is empty now): take a new one",
        );
      const len = buf.length;
      room(len);
      if (buf.buffer !== bytes.buffer || buf.byteOffset !== IN) bytes.set(buf, IN);
      bytes[IN + len] = 10;
      // Stream k starts just past the first LF from k/streams of the file on (a short file is one stream).
      let from = 0;
      for (let k = 1; k < streams; k++) {
        const lf = len < SPLIT_MIN ? -1 : bytes.indexOf(10, IN + Math.max(from, Math.floor((len * k) / streams)));
        if (lf !== -1 && lf < IN + len) from = lf + 1 - IN;
        m[k - 1] = IN + from;
      }
      const out = IN + align(len + 1, 8);
      const n = run(IN + len, out, m[0]!, m[1]!, m[2]!, m[3]!);
      return bytes.slice(out, out + n);
    },
  };
}
