// Placeholder entry while the panel is built (issue #4).
import { Chart } from 'chart.js';
console.log(typeof Chart);
