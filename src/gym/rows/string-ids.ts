/**
 * Strings as small integer ids in order of first appearance (so that per-row data fits typed arrays).
 *
 * @example
 * const ids = new StringIds(); ids.idOf('a'); // 0
 * ids.idOf('b'); ids.idOf('a'); // 1, 0
 * ids.names; // ['a', 'b']
 */
export class StringIds {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  /** The id of `name`, given a new one when it is new. */
  idOf(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }
}
