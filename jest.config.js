/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // @kubernetes/client-node 1.x, some of its deps and @marcbachmann/cel-js ship ES modules only; jest needs them as CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(@kubernetes/client-node|@marcbachmann/cel-js|openid-client|oauth4webapi|jose|hpagent)/)'],
  testTimeout: 60000,
  maxWorkers: 2,
};
