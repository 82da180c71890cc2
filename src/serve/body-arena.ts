/** A request body whose bytes are reused once nobody holds it (see {@link BodyArena}). */
export interface HeldBody {
  /** One more holder. */
  hold(): void;
  /** One holder fewer; at zero the bytes may be overwritten by a later body. */
  release(): void;
  /** Whether anybody still holds it. */
  readonly held: boolean;
}

/** Sizes of a {@link BodyArena}. */
export interface BodyArenaConfig {
  /** Bytes per slab. Default 16 MiB. */
  slabBytes?: number;
  /** Bodies larger than this get an allocation of their own. Default slabBytes / 8. */
  largestPooled?: number;
  /** Emptied slabs kept for reuse; more are left to the garbage collector. Default 4. */
  freeSlabs?: number;
}

/** A slab of bodies: bump-allocated, reused once every body in it is released. */
interface Slab {
  readonly bytes: Buffer;
  used: number;
  /** Bodies in it still held. */
  live: number;
}

class ArenaBody implements HeldBody {
  #refs = 1;
  constructor(
    readonly bytes: Buffer,
    private readonly slab: Slab | null,
    private readonly arena: BodyArena,
  ) {}

  get held(): boolean {
    return this.#refs > 0;
  }

  hold(): void {
    if (this.#refs <= 0) throw new Error('a released request body cannot be held again');
    this.#refs += 1;
  }

  release(): void {
    if (this.#refs <= 0) throw new Error('request body released more often than held');
    this.#refs -= 1;
    if (this.#refs === 0) this.arena.freed(this, this.slab);
  }
}

/**
 * Request bodies of `serve` in a few large, reused slabs instead of one allocation per body.
 *
 * Why: at 50,000 spans/s the receivers take ~25 MB/s of bodies, and a body lives from seconds (its
 * trials settle and are scored) to minutes (a retained trial is read back from its requests' bytes
 * when late spans come). A body of its own is fresh memory that the kernel must map and zero (the
 * copy into it cost more CPU than decoding it), and a long-lived `ArrayBuffer` that only a full
 * collection frees while new bodies keep adding external memory, which is what makes V8 start full
 * collections of the whole live state. Bodies in reused slabs cost neither once the slabs exist.
 *
 * Lifetimes are counted: the receiver holds a body while it decodes it, the live engine while the
 * request waits to be grouped, and the grouper for every trace that can read it back. A slab is reused
 * once every body in it is released; a slab still held by some body is left alone (another is used),
 * and the arena keeps no reference to it: a body whose holders are never counted off (a bug) costs
 * memory the garbage collector frees, never bytes overwritten under a reader.
 *
 * @example
 * const arena = new BodyArena();
 * const bytes = arena.take(length); // held once, by the caller
 * const body = arena.bodyOf(bytes)!; // its holds: body.hold(), body.release()
 * body.release(); // nobody holds it: its bytes may be reused
 */
export class BodyArena {
  readonly #slabBytes: number;
  readonly #largestPooled: number;
  readonly #freeLimit: number;
  #current: Slab | null = null;
  readonly #free: Slab[] = [];
  /** Bodies held now, by their bytes. */
  readonly #bodies = new Map<Uint8Array, ArenaBody>();
  /** Slabs made so far. */
  slabsCreated = 0;

  constructor(config: BodyArenaConfig = {}) {
    this.#slabBytes = config.slabBytes ?? 16 << 20;
    this.#largestPooled = Math.min(config.largestPooled ?? this.#slabBytes >>> 3, this.#slabBytes);
    this.#freeLimit = config.freeSlabs ?? 4;
  }

  /** `n` bytes for a body (their content is whatever was there), held once by the caller. */
  take(n: number): Buffer {
    let slab: Slab | null = null;
    let bytes: Buffer;
    if (n > this.#largestPooled) bytes = Buffer.allocUnsafeSlow(n);
    else {
      slab = this.#current;
      if (slab === null || slab.used + n > slab.bytes.length) {
        const full = slab;
        slab = this.#free.pop() ?? this.#newSlab();
        this.#current = slab;
        if (full !== null && full.live === 0) this.#recycle(full);
      }
      bytes = slab.bytes.subarray(slab.used, slab.used + n);
      slab.used += n;
      slab.live += 1;
    }
    this.#bodies.set(bytes, new ArenaBody(bytes, slab, this));
    return bytes;
  }

  /** The holds of a body `take` returned, while it is held; undefined for any other bytes. */
  bodyOf(bytes: Uint8Array): HeldBody | undefined {
    return this.#bodies.get(bytes);
  }

  /** Releases one hold of a body `take` returned (nothing for other bytes). */
  release(bytes: Uint8Array): void {
    this.#bodies.get(bytes)?.release();
  }

  /** Bodies held now. */
  get heldBodies(): number {
    return this.#bodies.size;
  }

  /** Called by a body whose last holder let go. */
  freed(body: ArenaBody, slab: Slab | null): void {
    this.#bodies.delete(body.bytes);
    if (slab === null) return;
    slab.live -= 1;
    if (slab.live > 0) return;
    if (slab === this.#current) slab.used = 0;
    else this.#recycle(slab);
  }

  #newSlab(): Slab {
    this.slabsCreated += 1;
    return { bytes: Buffer.allocUnsafeSlow(this.#slabBytes), used: 0, live: 0 };
  }

  #recycle(slab: Slab): void {
    slab.used = 0;
    if (this.#free.length < this.#freeLimit) this.#free.push(slab);
  }
}
