import {line} from "./shapes.js";

export default line({word: "thermo", label: "Thermometer", colour: "#aaa", width: 0.3, bulb: true});
