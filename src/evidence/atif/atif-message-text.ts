import type { JsonValue } from '../../model/json-value.js';

/**
 * Plain text of an ATIF `message` or observation `content`: a string as is; a content-part list as
 * its `text` parts joined by `\n` (media parts skipped); anything else (leniently read JSON) as null.
 *
 * @example
 * atifMessageText([{ type: 'text', text: 'a' }, { type: 'image', source: { media_type: 'image/png', path: 'i.png' } }]); // 'a'
 */
export function atifMessageText(message: JsonValue | undefined | unknown): string | null {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return null;
  const texts: string[] = [];
  for (const part of message as unknown[]) {
    if (part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string') texts.push(text);
    }
  }
  return texts.join('\n');
}
