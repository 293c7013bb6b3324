// A kernel pasted into the editor is read as what it is (issue #39 item 7): the engine's
// dialect guess — the command line's `isa::dialect_guess`, the same marks — picks the dialect
// when a pasted text shows another one than the page's, and CUDA C++ source (which must be
// compiled first) gets a notice saying how to get SASS or PTX from it, with a gallery example
// that shows the compiled version of a similar kernel.

import { el } from './dom.js';

/**
 * The gallery example whose compiled code is closest to a CUDA source's kind (each has its
 * `.cu` in www/examples-src/): printf → nvcc's PTX of a course exercise with printf; branches
 * or loops → the data-dependent if/else and loop of `its.cu` for Ampere; straight-line code
 * → the block-overlap polynomial.
 */
const SIMILAR = [
  { test: /\bprintf\s*\(/, id: 'warp-cfg-ptx-printf', what: 'a kernel with printf, as nvcc -ptx writes it' },
  { test: /\b(if|for|while|do)\b/, id: 'its-sm86', what: 'a kernel with a data-dependent branch and loop, as cuobjdump -sass lists it for sm_86' },
  { test: /[\s\S]/, id: 'block-overlap', what: 'a straight-line kernel, as cuobjdump -sass lists it for sm_61' },
];

/** The example to show next to pasted CUDA source `text`: `{ id, what }`. */
export function similarExample(text) {
  return SIMILAR.find((s) => s.test.test(text));
}

/**
 * The notice for CUDA C++ source (`mark`: `{line, evidence}` of the report's `cuda_source`),
 * into `box`; `title(id)` is an example's title.
 */
export function showCudaNotice(box, source, mark, title) {
  const like = similarExample(source);
  const code = (t) => el('code', { text: t });
  box.hidden = false;
  box.classList.add('cuda');
  box.replaceChildren(
    el(
      'p',
      {},
      `This is CUDA C++ source (`,
      code(mark.evidence),
      ` on line ${mark.line}). Warpbound analyses compiled kernels: compile it and paste the result — SASS with `,
      code('nvcc -cubin -arch=sm_86 kernel.cu'),
      ' then ',
      code('cuobjdump -sass kernel.cubin'),
      ' (or ',
      code('nvdisasm kernel.cubin'),
      '), or PTX with ',
      code('nvcc -ptx kernel.cu'),
      '.',
    ),
    el(
      'p',
      {},
      'The compiled version of a similar kernel: ',
      el('a', { href: `#ex=${like.id}`, id: 'cuda-example', text: title(like.id) }),
      ` (${like.what}).`,
    ),
  );
}

/**
 * After a paste into `editor`: asks `engine` what the whole text looks like and calls
 * `onDialect(guess)` when it shows a dialect other than `dialect()`, `onCuda(guess)` when it
 * is CUDA source. A paste into a kernel (a few lines) changes nothing: only a text that is
 * mostly new is a kernel of its own (`isNew(before, now)`).
 */
export function wirePaste(editor, engine, { dialect, isNew, onDialect, onCuda }) {
  editor.onPaste(async (before, text) => {
    if (!isNew(before, text)) return;
    let guess = null;
    try {
      guess = await engine.guess(text);
    } catch {
      return; // the engine was restarted meanwhile: the paste stays as it is
    }
    if (editor.value !== text || !guess) return; // typed on since, or nothing to say
    if (guess.cuda) onCuda(guess);
    else if (guess.dialect && guess.dialect !== dialect()) onDialect(guess);
  });
}
