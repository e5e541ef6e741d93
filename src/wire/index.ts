/** src/wire: media types, JSON/protobuf codecs, watch stream framers, gzip. Pure: no I/O, clock or logger. */
export * from './media-types';
export * from './protobuf';
export * from './watch-framer';
export * from './gzip';
export * from './decode';
export { goJson } from './json-spans';
