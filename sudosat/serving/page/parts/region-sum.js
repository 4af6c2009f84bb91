import {line} from "./shapes.js";

export default line({word: "region-sum", label: "Region-sum line", colour: "#2f7fd8", width: 0.18});
