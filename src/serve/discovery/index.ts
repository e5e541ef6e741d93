export { Discovery, aggregatedVersionAccepted, type DiscoveryOptions } from './discovery';
export { BUILTIN_RESOURCES, READ_ONLY_VERBS, type KnownResource, type KnownSubresource } from './known-resources';
export { RecordedDiscovery, type RecordedAnswer } from './recorded-discovery';
export { DEFAULT_VERSION_INFO, type VersionInfo } from './discovery-docs';
