import {edge} from "./shapes.js";

export default edge({word: "difference", label: "White kropki dot", fill: "#fff"});
