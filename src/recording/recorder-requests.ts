/**
 * Requests the recorder makes on its own (`kubetape record --complete`), not a client's: recorded
 * like any exchange, so that reconstruction reads their objects, and marked by their User-Agent so
 * that replay never answers a client with one and inspect can count them.
 */
export const RECORDER_USER_AGENT = 'kubetape-record/complete';

/** SQL over `exchanges`: true for the recorder's own requests (the User-Agent pair in `request_headers` JSON). */
export const RECORDER_REQUEST_SQL = `(request_headers LIKE '%["User-Agent","kubetape-record/%')`;
