import {line} from "./shapes.js";

export default line({word: "slow-thermo", label: "Slow thermometer", colour: "#aaa", width: 0.3, bulb: true, dashed: true});
