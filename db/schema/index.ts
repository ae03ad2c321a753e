export * from './users';
export * from './sessions';
export * from './rate-limits';
export * from './canaries';
export * from './canary-transitions';
export * from './activity';
export * from './deadman';
export * from './outbox';
