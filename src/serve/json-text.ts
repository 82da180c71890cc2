/**
 * A JSON document already serialised (for example by the thread that owns the live state), which
 * the HTTP API sends as it is instead of stringifying a value.
 *
 * @example
 * sendJson(res, 200, new JsonText('{"ok":true}'));
 */
export class JsonText {
  constructor(readonly text: string) {}
}
