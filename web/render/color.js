// A sequential colour scale that stays readable for colour-blind viewers and in
// greyscale (lightness rises monotonically): viridis, from nine anchor colours
// interpolated linearly in RGB.
const ANCHORS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725']
  .map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

// t in [0, 1] -> its colour's [r, g, b] written into out at offset (0..255 each); values outside are clamped.
export function viridisInto(t, out, offset = 0) {
  const x = Math.min(Math.max(Number.isFinite(t) ? t : 0, 0), 1) * (ANCHORS.length - 1);
  const i = Math.min(Math.floor(x), ANCHORS.length - 2);
  const f = x - i;
  const a = ANCHORS[i], b = ANCHORS[i + 1];
  for (let k = 0; k < 3; k++) out[offset + k] = Math.round(a[k] + (b[k] - a[k]) * f);
  return out;
}

// t in [0, 1] -> "rgb(r, g, b)"; values outside are clamped.
export function viridis(t) {
  const [r, g, b] = viridisInto(t, [0, 0, 0]);
  return `rgb(${r}, ${g}, ${b})`;
}

// Text colour that reads on viridis(t): white on the dark half, near-black on the light.
export function inkOn(t) {
  return t < 0.55 ? '#ffffff' : '#1d1f21';
}

// The colour of a masked cell (no weight at all): a neutral grey, outside the scale.
export const MASKED = '#8a8f96';
