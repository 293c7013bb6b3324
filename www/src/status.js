// The status line: what the page last did, or what went wrong (in red).

const $ = (id) => document.getElementById(id);

/** Shows `text` in the status line, as a problem when `bad`. */
export function showStatus(text, bad = false) {
  $('status').textContent = text;
  $('status').className = bad ? 'status bad' : 'status good';
}
