// Small pictures of maps: one pixel per cell, coloured like the heatmap, that
// CSS scales up (pixelated). For overviews of many maps, where labels and
// numbers would not fit: the full heatmap shows those.
//
//   mapThumbnail({ values, rows, cols, min, max }, canvas?) -> HTMLCanvasElement
//     a new canvas, or the given one drawn anew (a canvas and its context
//     cost more to make than to fill)
//   mapTiles([{ values, rows, cols }, ...], { min, max }) -> HTMLElement[]
//     maps of one size as one picture (a strip, one map under the other) that
//     each tile shows its part of as a background: a page of many maps keeps
//     one image, where a canvas each would cost the browser a resource to
//     hand over on every frame it draws
//   values: row-major
import { viridisInto } from './color.js';
import { doc } from './dom.js';

// the pixels of one map into image at row offset top
function paint(image, { values, rows, cols }, top, min, max) {
  const span = max - min || 1;
  for (let k = 0; k < rows * cols; k++) {
    const at = 4 * (top * cols + k);
    viridisInto((values[k] - min) / span, image.data, at);
    image.data[at + 3] = 255;
  }
}

export function mapThumbnail({ values, rows, cols, min = 0, max = 1 }, canvas = doc.createElement('canvas')) {
  canvas.className = 'map-thumbnail';
  canvas.width = cols;
  canvas.height = rows;
  canvas.setAttribute('aria-hidden', 'true');
  const context = canvas.getContext('2d');
  if (!context) return canvas;
  const image = context.createImageData(cols, rows);
  paint(image, { values, rows, cols }, 0, min, max);
  context.putImageData(image, 0, 0);
  return canvas;
}

export function mapTiles(maps, { min = 0, max = 1 } = {}) {
  const { rows, cols } = maps[0];
  if (maps.some((m) => m.rows !== rows || m.cols !== cols)) throw new Error('mapTiles: the maps differ in size');
  // a row of transparent pixels between maps: a scaled tile's edge never samples its neighbour
  const height = maps.length * (rows + 1) - 1;
  const canvas = doc.createElement('canvas');
  canvas.width = cols;
  canvas.height = height;
  const context = canvas.getContext('2d');
  let url = '';
  if (context) {
    const image = context.createImageData(cols, height);
    maps.forEach((m, k) => paint(image, m, k * (rows + 1), min, max));
    context.putImageData(image, 0, 0);
    url = canvas.toDataURL('image/png');
  }
  return maps.map((_, k) => {
    const tile = doc.createElement('span');
    tile.className = 'map-thumbnail map-tile';
    tile.setAttribute('aria-hidden', 'true');
    if (url) Object.assign(tile.style, {
      backgroundImage: `url("${url}")`,
      backgroundSize: `100% ${(height / rows) * 100}%`,
      backgroundPosition: `0 ${height > rows ? ((k * (rows + 1)) / (height - rows)) * 100 : 0}%`,
    });
    return tile;
  });
}
