/** Where `kubetape ui` listens unless told otherwise (loopback only). */
export const DEFAULT_UI_LISTEN = '127.0.0.1:8002';
