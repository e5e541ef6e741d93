/**
 * src/ui: see a recording. `startUi` serves the page and its JSON API (ui-api.ts) over one
 * recording; `writeReport` puts the same views in one self-contained HTML file.
 */
export { startUi, DEFAULT_UI_LISTEN } from './ui-server';
export type { UiOptions, UiServer } from './ui-server';
export { writeReport } from './report';
