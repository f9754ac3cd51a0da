/** The Node.js versions the embedded runtime supports (docs/decisions/0068-node-22-everywhere.md). */
export const minimumNodeMajor = 22;

/** Names what is wrong when this Node.js is older than the supported one, or undefined when it is fine. */
export function unsupportedNodeMessage(version = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= minimumNodeMajor) return undefined;
  return (
    `Dogu needs Node.js ${minimumNodeMajor} or newer (22 LTS or 24); this is ${version}. ` +
    'On x64 Linux `npm ci` installs Node 22 into node_modules and `npm start` uses it; ' +
    'elsewhere install Node 22 or 24 (README, Requirements).'
  );
}
