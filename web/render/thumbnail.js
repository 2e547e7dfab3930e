// A small picture of a map: one pixel per cell on a canvas, coloured like the
// heatmap, that CSS scales up (pixelated). For the overview of many maps,
// where labels and numbers would not fit: the full heatmap shows those.
// Data in, an element out: a new canvas, or the given one drawn anew (a
// canvas and its context cost more to make than to fill).
//
//   mapThumbnail({ values, rows, cols, min, max }, canvas?) -> HTMLCanvasElement
//   values: row-major (rows * cols)
import { viridisInto } from './color.js';

export function mapThumbnail({ values, rows, cols, min = 0, max = 1 }, canvas = document.createElement('canvas')) {
  canvas.className = 'map-thumbnail';
  canvas.width = cols;
  canvas.height = rows;
  canvas.setAttribute('aria-hidden', 'true');
  const context = canvas.getContext('2d');
  if (!context) return canvas;
  const image = context.createImageData(cols, rows);
  const span = max - min || 1;
  for (let k = 0; k < rows * cols; k++) {
    viridisInto((values[k] - min) / span, image.data, 4 * k);
    image.data[4 * k + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  return canvas;
}
