// Export of a widget's view: the visual as SVG or PNG, the numbers as CSV or
// JSON. Files are built in the page and saved with a download link: nothing
// is sent anywhere.
import { SVG_NS } from '../render/svg.js';
import { doc } from '../render/dom.js';

// A standalone SVG document of a drawn element: explicit text colour and
// background, since the page's CSS does not travel with the file.
export function svgDocument(element, { ink = '#1d1f21', background = '#ffffff' } = {}) {
  const copy = element.cloneNode(true);
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('color', ink);
  copy.removeAttribute('style');
  const [, , w, h] = (copy.getAttribute('viewBox') || '0 0 100 100').split(/\s+/).map(Number);
  copy.setAttribute('width', w);
  copy.setAttribute('height', h);
  const bg = doc.createElementNS(SVG_NS, 'rect');
  Object.entries({ x: 0, y: 0, width: w, height: h, fill: background }).forEach(([k, v]) => bg.setAttribute(k, v));
  copy.insertBefore(bg, copy.firstChild);
  for (const ring of copy.querySelectorAll('.heatmap-ring')) ring.remove();
  return { text: '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy), width: w, height: h };
}

// A failed export: its message is a key of the common catalog section, put
// into words where the error is shown (runtime.js).
function exportError(key) {
  const error = new Error(key);
  error.name = 'ExportError';
  return error;
}

// PNG bytes of an SVG document, drawn at `scale` times its size.
export function svgToPng({ text, width, height }, scale = 2) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = doc.createElement('canvas');
      canvas.width = Math.ceil(width * scale);
      canvas.height = Math.ceil(height * scale);
      const context = canvas.getContext('2d');
      context.scale(scale, scale);
      context.drawImage(image, 0, 0, width, height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(exportError('pngFailed'))), 'image/png');
    };
    image.onerror = () => reject(exportError('svgFailed'));
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
  });
}

// A text cell a spreadsheet would read as a formula (OWASP's CSV injection
// list: = + - @, tab, carriage return; and the full-width ＝ ＋ － ＠, which a
// spreadsheet set to East Asian input may take for their ASCII forms) gets a
// leading ' so it is read as text; a number, or text that is only a plain
// decimal number (ASCII digits), cannot be a formula and stays as it is.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
function csvText(s) {
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

// CSV text of a header row and data rows (RFC 4180 quoting).
export function toCsv(header, rows) {
  const cell = (v) => {
    const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN') : csvText(String(v ?? ''));
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

// Saves content (string or Blob) as a file named name.
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// JSON with typed arrays as plain arrays and non-finite numbers as strings
// ("-Infinity" for masked scores), so the file is valid JSON.
export function toJson(value) {
  return JSON.stringify(value, (key, v) => {
    if (ArrayBuffer.isView(v)) return Array.from(v, (x) => (Number.isFinite(x) ? x : String(x)));
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  }, 2) + '\n';
}
