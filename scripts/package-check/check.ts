// Type-checks the package's public types as a consumer does, with skipLibCheck off.
import { serve, record, replay, StatusError, RecordingFormatError, type ServeOptions, type RecordServer, type ReplayServer } from 'kubetape';

const options: ServeOptions = { clock: 'manual' };
export async function use(): Promise<string> {
  const api = await serve(options);
  const r: RecordServer = await record({ db: 'x.db', upstream: api.url });
  const t: ReplayServer = await replay({ db: 'x.db' });
  await Promise.all([r.close(), t.close(), api.close()]);
  return [api.url, api.kubeconfigPath, StatusError.name, RecordingFormatError.name].join();
}
