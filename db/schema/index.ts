// The one place that gathers every table, because Drizzle's relational API and drizzle-kit
// both want the whole schema as a single object.
export * from './access'
export * from './admin'
export * from './auth'
export * from './billing'
export * from './clients'
export * from './harmonize'
export * from './leaving'
export * from './mail'
export * from './meta'
export * from './panels'
export * from './security'
export * from './support'
