// Mantine's Modal alone, for on-demand-modal.tsx to load when a dialog first opens.
export { Modal } from '@mantine/core';
