import {edge} from "./shapes.js";

export default edge({word: "ratio", label: "Black kropki dot", fill: "#000"});
