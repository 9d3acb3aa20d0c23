/**
 * Writes the workflow bundle once (webpack takes some 20 s here), so that the worker polls at
 * once and each replay starts in a second. agents-core's ESM build loads its sandbox agent with
 * a dynamic `import()`, which webpack would split into a chunk that Temporal's workflow sandbox
 * cannot load ("Automatic publicPath is not supported"): eager mode keeps it in the one bundle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { agentsPlugin, bundlePath, workflowsPath } from './plugin.ts';

const options = agentsPlugin().configureBundler({
  workflowsPath,
  webpackConfigHook: (config) => ({
    ...config,
    module: { ...config.module, parser: { ...config.module?.parser, javascript: { dynamicImportMode: 'eager' } } },
  }),
});
const { code } = await bundleWorkflowCode(options);
mkdirSync(dirname(bundlePath), { recursive: true });
writeFileSync(bundlePath, code);
