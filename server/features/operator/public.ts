// What the operator command (scripts/cli.ts) uses: the operations and how to reach them.
export {
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type OperatorDeps,
  type OperatorOperation,
  operationPath,
  operatorOperations,
} from './operations'
