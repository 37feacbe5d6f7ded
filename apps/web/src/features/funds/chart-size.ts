/** The fund charts' height in pixels: the chart's and its placeholder's while it loads (nothing moves when it arrives). */
export const CHART_HEIGHT = 260;
