export * from './chromium.ts';
export * from './parse-xml.ts';
