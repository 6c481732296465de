// What other features, scripts and benches may use of client records.
export { createClient, storeClientPhoto } from './service'
