export * from './summary-fixture.ts';
