import { transcriptBody } from '../../test/support/transcripts';
import { watchTooOld } from '../k8s/status';
import { decodeWatchFrame, PROTOBUF_WATCH_TYPE } from './index';
import { watchErrorFrame } from './watch-error-frame';

const JSON_TYPE = 'application/json';

describe('the ERROR event', () => {
  it('JSON: the line the apiserver sends (c2), byte for byte', () => {
    const frame = watchErrorFrame(JSON_TYPE, watchTooOld('1', '198'));
    expect(frame.toString()).toBe(transcriptBody('c2-watch-rv1-cache-on').toString());
  });

  it('protobuf: a length-prefixed WatchEvent ERROR carrying an enveloped Status', () => {
    const status = watchTooOld('1', '198');
    const frame = watchErrorFrame(PROTOBUF_WATCH_TYPE, status);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    expect(frame.subarray(4, 11)).toEqual(Buffer.from([0x0a, 0x05, ...Buffer.from('ERROR')]));
    expect(frame.includes(Buffer.from([0x6b, 0x38, 0x73, 0x00]))).toBe(true);
    expect(decodeWatchFrame(PROTOBUF_WATCH_TYPE, frame)).toEqual({ type: 'ERROR', status });
  });
});
