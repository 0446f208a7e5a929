// console output goes to svc's log and, when the client set a log level, to the client.
export default async () => {
  console.info("Tool execution started");
  await Promise.resolve();
  console.info("Tool processing data");
  await Promise.resolve();
  console.info("Tool execution completed");
  return "Logging test completed";
};
