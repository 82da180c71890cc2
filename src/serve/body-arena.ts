/** A request body kept for re-reading, counted: it stays readable while anyone holds a reference. */
export interface RetainedBody {
  /** The body's bytes; read them afresh at each use (a body can be moved out of its slab). */
  readonly bytes: Buffer;
  /** One more holder. */
  retain(): void;
  /** One holder fewer; at zero the bytes may be overwritten by later bodies. */
  release(): void;
  /**
   * Decoded objects that read from `bytes` where they are now (a request's decoded spans) are
   * alive: the body is not moved meanwhile (see {@link BodyArena}). One `dropView` per `addView`.
   */
  addView(): void;
  dropView(): void;
}

/** Sizes of a {@link BodyArena}. */
export interface BodyArenaConfig {
  /** Bytes per slab. Default 16 MiB. */
  slabBytes?: number;
  /** Bodies larger than this are kept in their own allocation, not copied. Default slabBytes / 8. */
  largestPooled?: number;
  /** Emptied slabs kept for reuse; more are left to the garbage collector. Default 4. */
  freeSlabs?: number;
}

/** A slab of bodies: bump-allocated, reused once every body in it is released. */
interface Slab {
  readonly bytes: Uint8Array;
  /** Next free offset. */
  used: number;
  /** Bodies in it still held, and their bytes. */
  live: Set<ArenaBody>;
  liveBytes: number;
}

class ArenaBody implements RetainedBody {
  #refs = 1;
  /** Live decoded objects reading these bytes in place: while above 0 the body is not moved. */
  views = 0;
  constructor(
    public bytes: Buffer,
    public slab: Slab | null,
    private readonly arena: BodyArena,
  ) {}

  retain(): void {
    if (this.#refs <= 0) throw new Error('a released body cannot be retained again');
    this.#refs += 1;
  }

  release(): void {
    if (this.#refs <= 0) throw new Error('body released more often than retained');
    this.#refs -= 1;
    if (this.#refs === 0) this.arena.freed(this);
  }

  addView(): void {
    this.views += 1;
  }

  dropView(): void {
    if (this.views <= 0) throw new Error('body view dropped more often than added');
    this.views -= 1;
    if (this.views === 0 && this.#refs > 0) this.arena.unpinned(this);
  }
}

/**
 * Keeps request bodies that may have to be read again (a retained trial's spans are re-decoded from
 * them when late spans arrive) in a few large, reused slabs instead of one allocation per body.
 *
 * Why: a kept body of its own is an `ArrayBuffer` that lives for seconds to minutes, so it is
 * promoted and only a full (mark-compact) collection frees it, while new bodies keep adding
 * external memory, which is what makes V8 start full collections. At ~60 MB/s of bodies that was a
 * full collection of the whole live state about every second. Bodies copied into reused slabs
 * add no external memory once the slabs exist, and their own buffers die young.
 *
 * A slab is reused when every body in it is released. So that a few long-held bodies cannot pin
 * many mostly empty slabs, a full slab whose held bytes fall under an eighth of it has its last
 * bodies copied out into allocations of their own, and is reused at once: slabs then never hold
 * more than about eight times the bytes still held by bodies without views. A body with views
 * (decoded spans reading it in place, {@link RetainedBody.addView}) is never moved: its slab waits
 * until its views are gone.
 *
 * @example
 * const arena = new BodyArena();
 * const body = arena.store(requestBytes); // held once, by the caller
 * engine.accept(decode(body.bytes), () => decode(body.bytes), body); // the engine retains what it keeps
 * body.release();
 */
export class BodyArena {
  readonly #slabBytes: number;
  readonly #largestPooled: number;
  readonly #freeLimit: number;
  #current: Slab | null = null;
  readonly #free: Slab[] = [];
  /** Emptied slabs left to the garbage collector (the free list was full). */
  #dropped = 0;
  /** Slabs made so far (for tests and metrics). */
  slabsCreated = 0;

  constructor(config: BodyArenaConfig = {}) {
    this.#slabBytes = config.slabBytes ?? 16 << 20;
    this.#largestPooled = Math.min(config.largestPooled ?? this.#slabBytes >>> 3, this.#slabBytes);
    this.#freeLimit = config.freeSlabs ?? 4;
  }

  /** Keeps a copy of `bytes` (or `bytes` itself when large); the result is held once, by the caller. */
  store(bytes: Uint8Array): RetainedBody {
    const n = bytes.byteLength;
    if (n > this.#largestPooled) {
      const own = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, n);
      return new ArenaBody(own, null, this);
    }
    let slab = this.#current;
    if (slab === null || slab.used + n > slab.bytes.byteLength) {
      // the full slab is reused as soon as it empties (or is evacuated when nearly empty)
      this.#current = null;
      if (slab !== null) this.#reconsider(slab);
      slab = this.#free.pop() ?? this.#newSlab();
      this.#current = slab;
    }
    const at = slab.used;
    slab.bytes.set(bytes, at);
    slab.used = at + n;
    const body = new ArenaBody(Buffer.from(slab.bytes.buffer, slab.bytes.byteOffset + at, n), slab, this);
    slab.live.add(body);
    slab.liveBytes += n;
    return body;
  }

  /** Slabs in use (the current one included) and kept free. */
  get slabs(): { inUse: number; free: number } {
    return { inUse: this.slabsCreated - this.#dropped - this.#free.length, free: this.#free.length };
  }

  /** Called by a body whose last holder let go. */
  freed(body: ArenaBody): void {
    const slab = body.slab;
    if (slab === null) return;
    body.slab = null;
    slab.live.delete(body);
    slab.liveBytes -= body.bytes.byteLength;
    this.#reconsider(slab);
  }

  /** Called by a held body whose last view went: its slab may be evacuated now. */
  unpinned(body: ArenaBody): void {
    if (body.slab !== null) this.#reconsider(body.slab);
  }

  /** A full slab is reused once empty, or evacuated once nearly empty; the current one waits. */
  #reconsider(slab: Slab): void {
    if (slab === this.#current) return;
    if (slab.live.size === 0) this.#recycle(slab);
    else if (slab.liveBytes * 8 < slab.bytes.byteLength) this.#evacuate(slab);
  }

  #newSlab(): Slab {
    this.slabsCreated += 1;
    return { bytes: new Uint8Array(this.#slabBytes), used: 0, live: new Set(), liveBytes: 0 };
  }

  /**
   * Moves a slab's remaining bodies into allocations of their own, then reuses the slab; nothing
   * while any of them has views (objects reading it in place).
   */
  #evacuate(slab: Slab): void {
    for (const body of slab.live) if (body.views > 0) return;
    for (const body of slab.live) {
      body.bytes = Buffer.from(body.bytes); // a copy of its own
      body.slab = null;
    }
    slab.live.clear();
    slab.liveBytes = 0;
    this.#recycle(slab);
  }

  #recycle(slab: Slab): void {
    slab.used = 0;
    if (this.#free.length < this.#freeLimit) this.#free.push(slab);
    else this.#dropped += 1;
  }
}
