import pino, { type Logger } from 'pino';

export type { Logger };

/** Header names whose values never reach a log line or a recording. */
export const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-auth-token', 'x-remote-user'];

export interface LoggerOptions {
  level?: string;
  /** Pretty output for people; defaults to whether stderr is a TTY. */
  pretty?: boolean;
}

/** The root logger: JSON lines on stderr (pretty on a TTY), secrets redacted. Components take `log.child({ component })`. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.KUBETAPE_LOG_LEVEL ?? 'info';
  const redact = { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'], censor: '[redacted]' };
  const pretty = options.pretty ?? Boolean(process.stderr.isTTY);
  if (pretty) {
    return pino({ level, redact, transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } } });
  }
  return pino({ level, redact }, pino.destination({ dest: 2, sync: false }));
}

/** A logger that drops everything: the default for the library API and unit tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
