// comlink ships the node adapter's types as node-adapter.d.ts beside node-adapter.mjs, which
// TypeScript does not pair up for a `.mjs` specifier.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import nodeEndpoint from 'comlink/dist/esm/node-adapter';
  export default nodeEndpoint;
}
