// The flow language stands on the step module: a program that parses and runs flows
// (`harness`, its tests) gets the step values, the runner and the results with `import HarnessFlows`.
@_exported import HarnessSteps
