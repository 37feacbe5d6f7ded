/** The picklist the deal board is laid out by, and whose changes a deal's stage history lists. */
export const BOARD_FIELD = 'stage';
