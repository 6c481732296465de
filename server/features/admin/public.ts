// What other parts of the server may use of the operators' console.
export { addOperator, listOperators, removeOperator } from './operators'
