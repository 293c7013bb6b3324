// Trunk post_build hook: finishes dist/ in Trunk's staging directory. One script for every
// step because Trunk runs the hooks of one stage concurrently, and the service worker's
// stamp must hash index.html as the other steps leave it.
import { stripLoader } from './strip-loader.mjs';
import { markWasmSize } from './wasm-size.mjs';
import { stampServiceWorker } from './stamp-offline.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('TRUNK_STAGING_DIR is not set: run me as a Trunk hook');
stripLoader(dir);
markWasmSize(dir);
const { build, files } = stampServiceWorker(dir);
console.log(`service worker: build ${build}, ${files.length} files cached`);
