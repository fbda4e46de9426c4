// graphql-ws publishes its WebSocket adapter only under package "exports", which the project's
// module resolution ("node") does not read for types; point the types at the file itself.
declare module 'graphql-ws/use/ws' {
  export * from 'graphql-ws/dist/use/ws';
}
