// Trunk post_build hook: finishes dist/ in Trunk's staging directory. One script for every
// step because Trunk runs the hooks of one stage concurrently, and each step edits index.html.
import { stripLoader } from './strip-loader.mjs';
import { markWasmSize } from './wasm-size.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('TRUNK_STAGING_DIR is not set: run me as a Trunk hook');
stripLoader(dir);
markWasmSize(dir);
