// The Node major Kumo needs (node:sqlite, type stripping), checked by each entry before it loads anything that needs it.
export const requiredNodeMajor = 24;

/** Why this Node cannot run Kumo, as the one line an entry prints; null when it can. */
export function nodeVersionProblem(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? NaN);
  if (major >= requiredNodeMajor) return null;
  return (
    `kumo: needs Node ${requiredNodeMajor} or later, and this is Node ${version.replace(/^v/, '')}: ` +
    `run it with Node ${requiredNodeMajor} (\`npm start\` uses the one npm installed with the project)`
  );
}
