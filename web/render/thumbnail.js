// A small picture of a map: one pixel per cell on a canvas, coloured like the
// heatmap, that CSS scales up (pixelated). For the overview of many maps,
// where labels and numbers would not fit: the full heatmap shows those.
// Pure: data in, a new element out.
//
//   mapThumbnail({ values, rows, cols, min, max }) -> HTMLCanvasElement
//   values: row-major (rows * cols)
import { viridis } from './color.js';

export function mapThumbnail({ values, rows, cols, min = 0, max = 1 }) {
  const canvas = document.createElement('canvas');
  canvas.className = 'map-thumbnail';
  canvas.width = cols;
  canvas.height = rows;
  canvas.setAttribute('aria-hidden', 'true');
  const context = canvas.getContext('2d');
  if (!context) return canvas;
  const image = context.createImageData(cols, rows);
  const span = max - min || 1;
  for (let k = 0; k < rows * cols; k++) {
    const [r, g, b] = viridis((values[k] - min) / span).match(/\d+/g).map(Number);
    image.data.set([r, g, b, 255], 4 * k);
  }
  context.putImageData(image, 0, 0);
  return canvas;
}
