/**
 * The library API: the same servers the CLI starts, in-process, for jest or mocha tests.
 *
 *   import { serve } from 'kubetape';
 *   const api = await serve({ db: 'recordings/session.db' });
 *   // point a client at api.url or api.kubeconfigPath … then
 *   await api.close();
 */
export { record } from './record';
export type { RecordOptions, RecordServer } from './record';
export { replay } from './replay';
export type { ReplayOptions, ReplayServer } from './replay';
export { serve } from './serve';
export type { ServeOptions, ServeServer } from './serve';
export { startUi as ui, writeReport } from './ui';
export type { UiOptions, UiServer } from './ui';
export { StatusError } from './k8s/status';
export { RecordingFormatError } from './errors/recording-format-error';
