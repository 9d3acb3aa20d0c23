export * from './parse-xml.ts';
export * from './summary-fixture.ts';
