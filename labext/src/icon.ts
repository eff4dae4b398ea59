import { LabIcon } from '@jupyterlab/ui-components';

const svgstr = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <g class="jp-icon3" fill="#616161">
    <path d="M4 4h7v2H6v12h5v2H4zM13 4h7v16h-7v-2h5V6h-5z"/>
    <circle cx="8.5" cy="12" r="1.5"/>
    <circle cx="12" cy="12" r="1.5"/>
    <circle cx="15.5" cy="12" r="1.5"/>
  </g>
</svg>`;

/** The side panel's icon. */
export const mcpLabIcon = new LabIcon({
  name: 'jupyter-mcp-lab:icon',
  svgstr
});
