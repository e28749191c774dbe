/**
 * What happy-dom lacks and Mantine reads: `document.fonts` (the autosizing textarea listens for
 * fonts loading). A test document loads no fonts, so an event target that never fires is exact.
 */
if (!('fonts' in document)) {
  const fonts = Object.assign(new EventTarget(), { ready: Promise.resolve(), status: 'loaded' });
  Object.defineProperty(document, 'fonts', { value: fonts, configurable: true });
}
