// What other features may use of the reference data.
export { isCountry, isStateOf } from './service'
