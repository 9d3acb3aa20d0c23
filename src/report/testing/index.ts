export * from './parse-xml.ts';
