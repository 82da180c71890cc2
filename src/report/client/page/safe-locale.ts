/**
 * uPlot formats numbers with `new Intl.NumberFormat(navigator.language)` when it loads; a browser
 * started under a POSIX locale reports a tag such as `en-US@posix`, which Intl rejects. Imported before
 * uPlot: such a tag is replaced by its language part, so the page still loads.
 *
 * @example
 * import './safe-locale.js';
 */
export const pageLocale = ((): string => {
  const tag = navigator.language;
  try {
    new Intl.NumberFormat(tag);
    return tag;
  } catch {
    const plain = tag.split('@')[0] || 'en-US';
    Object.defineProperty(navigator, 'language', { get: () => plain, configurable: true });
    return plain;
  }
})();
