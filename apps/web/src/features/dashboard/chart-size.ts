/** Height of one bar's row, and of the axis under them, in pixels: the chart's and its placeholder's. */
export const BAR_ROW = 30;
export const AXIS_HEIGHT = 30;
